#!/usr/bin/env bash
# Builds go-httpbin's static binary from the module pinned in go.mod (Go module proxy) and
# stages the FROM-scratch image context; prints its directory.
# Usage: stage.sh <context dir>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ctx=$1
mkdir -p "$ctx"
# the module's own version pin (go.sum) decides what is built; no cgo, so no libc to ship
(cd "$here" && CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$ctx/go-httpbin" \
  github.com/mccutchen/go-httpbin/v2/cmd/go-httpbin)
if readelf -l "$ctx/go-httpbin" | grep -q 'Requesting program interpreter'; then
  echo "stage.sh: go-httpbin is dynamically linked; a FROM-scratch image needs a static build" >&2
  exit 1
fi
install -m 0644 "$here/Containerfile" "$ctx/Containerfile"
echo "$ctx"
