# Images without a registry: built with podman from a Containerfile, imported into the node's
# containerd (namespace k8s.io, where the kubelet looks). Pods use imagePullPolicy Never or
# IfNotPresent.
# shellcheck shell=bash

LK_PAUSE_IMAGE=localhost/localkube/pause:3.10
LK_DEMO_IMAGE=localhost/localkube/demo:1

lk_ctr() { ctr --address "$LK_CONTAINERD_SOCK" -n k8s.io "$@"; }

lk_image_present() { lk_ctr images ls -q | grep -x "$1" >/dev/null; }

# Builds DIR (with a Containerfile) as TAG and imports it into the node.
lk_load_image_build() {
  local dir=$1 tag=$2 archive
  [ -f "$dir/Containerfile" ] || [ -f "$dir/Dockerfile" ] || lk_die "$dir has no Containerfile or Dockerfile"
  command -v podman >/dev/null || lk_die "podman is missing; run 'make deps' (installs podman)"
  podman build --quiet --runtime runc -t "$tag" "$dir" >/dev/null || lk_die "podman build of $dir failed"
  archive=$(mktemp "${TMPDIR:-/tmp}/localkube-image.XXXXXX.tar")
  podman save --quiet --format docker-archive -o "$archive.save" "$tag" || { rm -f "$archive" "$archive.save"; lk_die "podman save $tag failed"; }
  mv "$archive.save" "$archive"
  lk_load_image_archive "$archive"
  rm -f "$archive"
}

# Into every node's containerd: each node has its own image store, as real nodes do.
lk_load_image_archive() {
  local i
  [ -f "$1" ] || lk_die "no such image archive: $1"
  if [ -n "${LK_NODE_EXTRA:-}" ]; then lk_import_archive "$1" "containerd-$LK_NODE_EXTRA"; return; fi
  lk_import_archive "$1" containerd
  for i in $(lk_present_nodes); do
    if lk_is_running "containerd-$i"; then lk_in_node "$i" lk_import_archive "$1" "containerd-$i"; fi
  done
}

lk_import_archive() { # archive component
  lk_health "$2" >/dev/null 2>&1 || lk_die "$2 is not running; run 'localkube up' first"
  lk_ctr images import --digests=true "$1" >/dev/null || lk_die "importing $1 into $2 failed"
}

# The pause image's build context (a static binary, FROM scratch) in DIR.
lk_pause_context() {
  cp "$LK_SRC/images/pause/Containerfile" "$1/"
  gcc -O2 -static -o "$1/pause" "$LK_SRC/images/pause/pause.c" || lk_die "building the pause binary failed (is build-essential installed? run 'make deps')"
}

# The two images localkube itself needs; built once and kept in containerd's root.
lk_ensure_base_images() {
  local ctx
  if ! lk_image_present "$LK_PAUSE_IMAGE"; then
    ctx=$(mktemp -d); lk_pause_context "$ctx"
    lk_load_image_build "$ctx" "$LK_PAUSE_IMAGE"; rm -rf "$ctx"
  fi
  if ! lk_image_present "$LK_DEMO_IMAGE"; then
    ctx=$(mktemp -d); cp -r "$LK_SRC/images/demo/Containerfile" "$LK_SRC/images/demo/www" "$ctx/"
    cp /bin/busybox "$ctx/busybox" || lk_die "/bin/busybox is missing; run 'make deps' (installs busybox-static)"
    lk_load_image_build "$ctx" "$LK_DEMO_IMAGE"; rm -rf "$ctx"
  fi
}
