#!/usr/bin/env bash
# `make stop`: stops what `make run` started (either MODE), by PID, then the cluster.
# MODE=cluster's chart is uninstalled first (CRDs, classes, tenants, pools and the token Secret
# stay, docs/install.md), so that the next `make run` of either mode finds no second controller.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LK=$ROOT/localkube/localkube
RUN_DIR=${ISOLATO_RUN_DIR:-/var/lib/isolato-run}
# Running, and not a zombie (a `make run` that ended but whose parent has not reaped it yet).
alive() { [ -r "/proc/$1/stat" ] && ! awk '{ exit ($3 == "Z") ? 0 : 1 }' "/proc/$1/stat" 2>/dev/null; }
if [ -f "$RUN_DIR/run.pid" ]; then
  pid=$(cat "$RUN_DIR/run.pid"); rm -f "$RUN_DIR/run.pid"
  # From another shell: signal `make run`, whose trap calls this script again.
  if [ "$pid" != "$PPID" ] && alive "$pid"; then
    kill -TERM "$pid"
    while alive "$pid"; do sleep 0.2; done
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
if [ "$(cat "$RUN_DIR/mode" 2>/dev/null)" = cluster ] && "$LK" status >/dev/null 2>&1; then
  echo "[make stop] helm uninstall isolato (CRDs, tenants, pools and the token Secret stay)"
  KUBECONFIG=$("$LK" kubeconfig) "${HELM:-$(make -s --no-print-directory -C "$ROOT" helm-path)}" \
    uninstall isolato -n isolato-system --wait >/dev/null 2>&1 || echo "[make stop] no release to uninstall"
  echo host > "$RUN_DIR/mode"
fi
"$LK" down
