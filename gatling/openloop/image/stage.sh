#!/usr/bin/env bash
# Builds the open-loop referee's static binary and stages its FROM-scratch image context;
# prints its directory.
# Usage: stage.sh <context dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ctx=$1
mkdir -p "$ctx"
# no cgo, so no libc to ship (the referee is stdlib only)
(cd "$here/.." && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$ctx/openloop" .)
if readelf -l "$ctx/openloop" | grep -q 'Requesting program interpreter'; then
  echo "stage.sh: openloop is dynamically linked; a FROM-scratch image needs a static build" >&2
  exit 1
fi
install -m 0644 "$here/Containerfile" "$ctx/Containerfile"
echo "$ctx"
