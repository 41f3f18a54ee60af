#!/usr/bin/env bash
# Stages the image build context (Containerfile + static binary) and prints its directory.
# Usage: stage.sh <static saas-bench binary> <context dir>
set -euo pipefail
bin=$1
ctx=$2
if readelf -l "$bin" | grep -q 'Requesting program interpreter'; then
  echo "stage.sh: $bin is dynamically linked; a FROM-scratch image needs the static build" >&2
  exit 1
fi
mkdir -p "$ctx"
install -m 0755 "$bin" "$ctx/saas-bench"
install -m 0644 "$(dirname "$0")/Containerfile" "$ctx/Containerfile"
echo "$ctx"
