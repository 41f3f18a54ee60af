#!/usr/bin/env bash
# `make tune`: the deploy-pipeline tuning loop (docs/pipeline.md "The tuning loop") on localkube.
# Brings localkube up if it is not, then benchmarks a workload shape, breaks it down by stage,
# applies one recommendation per iteration with `localkube config set` + `localkube up` and
# measures again, printing one line per step. Arguments go to TuneMain, e.g.
#   make tune TUNE_ARGS="--workloads 10 --pods 10 --max-changes 3"
# Defaults: 1 Deployment × 100 pods, up to 5 changes; the analysis is written to
# build/tune/<time>.json. The changed settings stay in $LOCALKUBE_HOME/localkube.conf
# (`localkube config` lists them; `localkube config unset KEY && localkube up` undoes one).
# KWOK_NODES=N runs the pods on N KWOK fake nodes instead of the real node (`localkube kwok up
# N`, left up: `localkube kwok down` removes them), e.g. the paper's Fig. 8 shape:
#   KWOK_NODES=16 make tune TUNE_ARGS="--pods 1600 --timeout 300"
# --path tenants|scale|class tunes one of Isolato's own paths instead: J dedicated tenants
# onboarded at once (--workloads, default 25: 60m pods on two cores), a pool scaled by P pods or a new class with a pool
# of P pods (--pods, default 9), with the
# controller jar run and restarted by the loop to apply its isolato.* settings, e.g.
#   make tune TUNE_ARGS="--path tenants --workloads 25 --max-changes 3"
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
LK="$ROOT/localkube/localkube"
JAR="$ROOT/controller/target/isolato-controller.jar"
TUNER_JAR="$ROOT/tuner/target/isolato-tuner.jar"
for j in "$JAR" "$TUNER_JAR"; do
  [ -f "$j" ] || { echo "[tune] $j is missing: run 'make tuner-build'" >&2; exit 1; }
done
"$LK" status >/dev/null 2>&1 || "$LK" up
where=()
if [ -n "${KWOK_NODES:-}" ]; then
  "$LK" kwok up "$KWOK_NODES"
  where=(--node-label isolato.dev/kwok-node=true)
fi
KUBECONFIG=$("$LK" kubeconfig)
export KUBECONFIG
# Copies of the jars: a rebuild while the loop runs must not pull classes from under it.
copy=$(mktemp --suffix=.jar) tuner=$(mktemp --suffix=.jar)
trap 'rm -f "$copy" "$tuner"' EXIT
cp "$JAR" "$copy"
cp "$TUNER_JAR" "$tuner"
out_default="$ROOT/build/tune/$(date -u +%Y%m%dT%H%M%SZ).json"
has_out=false has_path=false
for a in "$@"; do
  [ "$a" = --out ] && has_out=true
  [ "$a" = --path ] && has_path=true
done
extra=()
$has_out || extra=(--out "$out_default")
if $has_path; then
  # Isolato's own paths: the loop runs the controller jar (its child) with a token of its own;
  # the pools' image must be on the node
  LOG_TAG=tune
  source "$ROOT/controller/test/lib.sh"
  trap 'rm -f "$copy" "$tuner"; rm -rf "$WORK"' EXIT
  require_cluster
  ctx=$(make -s --no-print-directory -C "$ROOT" saas-bench-image)
  "$LK" load-image --build "$ctx" --tag "$IMAGE"
  export_controller_env
  extra+=(--controller-jar "$copy" --api "$API" --token-file "$WORK/token" --image "$IMAGE"
    --controller-log "$ROOT/build/tune/$(date -u +%Y%m%dT%H%M%SZ).controller.log")
fi
java -Dloader.main=dev.isolato.tuner.TuneMain -cp "$tuner" \
  org.springframework.boot.loader.launch.PropertiesLauncher --localkube "$LK" "${where[@]}" "${extra[@]}" "$@"
