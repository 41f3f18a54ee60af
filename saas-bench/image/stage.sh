#!/usr/bin/env bash
# Stages a FROM-scratch image build context (Containerfile + static binary, installed under its
# own name) and prints its directory. Used for saas-bench and isolato-gate.
# Usage: stage.sh <static binary> <context dir> [Containerfile (default: saas-bench's)]
set -euo pipefail
bin=$1
ctx=$2
containerfile=${3:-$(dirname "$0")/Containerfile}
if readelf -l "$bin" | grep -q 'Requesting program interpreter'; then
  echo "stage.sh: $bin is dynamically linked; a FROM-scratch image needs the static build" >&2
  exit 1
fi
mkdir -p "$ctx"
install -m 0755 "$bin" "$ctx/$(basename "$bin")"
install -m 0644 "$containerfile" "$ctx/Containerfile"
echo "$ctx"
