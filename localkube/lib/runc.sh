# A second OCI runtime for containerd's shims (containerd.runc = built): runc built from the Go
# module proxy at a pinned version into the cache, by `localkube up` when chosen. Against Debian
# 12's runc 1.1.5 (the default) it uses less CPU outside the pods and more inside each pod's own
# cgroup, where a small CPU limit throttles it (docs/pipeline.md, "The OCI runtime";
# `isolato-bench runtime-ab` compares them).
# shellcheck shell=bash

: "${LK_RUNC_VERSION:=v1.5.2}"
LK_RUNC_MODULE=github.com/opencontainers/runc
LK_RUNC_DIR="$LK_CACHE/runc-$LK_RUNC_VERSION"

# The seccomp build tag needs cgo and libseccomp's headers (libseccomp-dev): pods that ask for
# the RuntimeDefault profile must get it.
lk_build_runc() {
  [ -x "$LK_RUNC_DIR/bin/runc" ] && return 0
  lk_require_go
  lk_log "building runc $LK_RUNC_VERSION (cold: ~1 min; cached afterwards in $LK_RUNC_DIR)"
  CGO_ENABLED=1 lk_go_install "$LK_RUNC_DIR/bin/runc" "$LK_RUNC_MODULE@$LK_RUNC_VERSION" \
    -tags "seccomp urfave_cli_no_docs" -ldflags "-s -w -X main.version=${LK_RUNC_VERSION#v}" \
    || { lk_log "error: building runc failed (it needs gcc and libseccomp-dev: run 'make deps')"; return 1; }
}

# The binary containerd.runc names: `built` is the pinned build above, anything else a path.
lk_runc_binary() {
  local v; v=$(lk_conf containerd.runc)
  if [ "$v" = built ]; then echo "$LK_RUNC_DIR/bin/runc"; else echo "$v"; fi
}
