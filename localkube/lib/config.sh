# The one configuration file: defaults (in the repository) overlaid by the user's file.
# shellcheck shell=bash

LK_DEFAULTS=$LK_SRC/config/defaults.conf
declare -gA LK_CONF=()
declare -gA LK_CONF_DEFAULT=()
declare -ga LK_CONF_KEYS=()

# Prints "key<TAB>value" for each setting of a file, ignoring comments and blank lines.
lk_conf_parse() {
  awk -v file="$1" '
    /^[[:space:]]*(#|$)/ { next }
    {
      line = $0; sub(/[[:space:]]+#.*$/, "", line)
      eq = index(line, "=")
      if (eq == 0) { printf "%s:%d: expected key = value, got: %s\n", file, NR, $0 > "/dev/stderr"; bad = 1; next }
      k = substr(line, 1, eq - 1); v = substr(line, eq + 1)
      gsub(/^[[:space:]]+|[[:space:]]+$/, "", k); gsub(/^[[:space:]]+|[[:space:]]+$/, "", v)
      printf "%s\t%s\n", k, v
    }
    END { exit bad }' "$1"
}

lk_conf_load() {
  local k v parsed
  LK_CONF=(); LK_CONF_KEYS=()
  parsed=$(lk_conf_parse "$LK_DEFAULTS") || lk_die "the defaults file $LK_DEFAULTS is malformed"
  while IFS=$'\t' read -r k v; do LK_CONF[$k]=$v; LK_CONF_DEFAULT[$k]=$v; LK_CONF_KEYS+=("$k"); done <<< "$parsed"
  [ -f "$LK_USER_CONF" ] || return 0
  parsed=$(lk_conf_parse "$LK_USER_CONF") || lk_die "fix $LK_USER_CONF (see the line above) or remove it"
  while IFS=$'\t' read -r k v; do
    [ -n "$k" ] || continue
    lk_conf_known "$k" || lk_die "$LK_USER_CONF: unknown config key '$k'; 'localkube config' lists the known keys"
    lk_conf_check "$k" "$v" || exit 1
    LK_CONF[$k]=$v
  done <<< "$parsed"
}

lk_conf_known() { [ -n "${LK_CONF[$1]+x}" ]; }

# Values that would only fail later, deep inside a component's log, are rejected here.
lk_conf_check() {
  local k=$1 v=$2
  case "$k" in
    etcd.storage) [[ "$v" =~ ^(disk|memory)$ ]] || { lk_conf_bad "$k" "$v" "disk or memory"; return 1; } ;;
    node.ip) [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$ ]] || { lk_conf_bad "$k" "$v" "an IPv4 address"; return 1; } ;;
    node.name) [[ "$v" =~ ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ ]] || { lk_conf_bad "$k" "$v" "a DNS-1123 label"; return 1; } ;;
    containerd.runc)
      [[ "$v" == built || ( "$v" == /* && -x "$v" ) ]] || { lk_conf_bad "$k" "$v" "built or the absolute path of a runc executable"; return 1; } ;;
    node.count) [[ "$v" =~ ^[1-8]$ ]] || { lk_conf_bad "$k" "$v" "a node count from 1 to 8"; return 1; } ;;
    node.*-cidr) [[ "$v" =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/[0-9]+$ ]] || { lk_conf_bad "$k" "$v" "an IPv4 CIDR"; return 1; } ;;
    *)
      [ -n "$v" ] || { lk_conf_bad "$k" "$v" "a non-empty value"; return 1; }
      [[ "$v" =~ ^[-A-Za-z0-9.:/_=,]+$ ]] || { lk_conf_bad "$k" "$v" "a plain value (letters, digits, .:/_=,-)"; return 1; }
      ;;
  esac
}
lk_conf_bad() { printf "[localkube] error: config key '%s' has value '%s'; expected %s\n" "$1" "$2" "$3" >&2; }

lk_conf() { echo "${LK_CONF[$1]}"; }

# `--flag=value` for every setting of a component, in file order.
lk_conf_flags() {
  local comp=$1 k
  for k in "${LK_CONF_KEYS[@]}"; do
    [[ "$k" == "$comp".* ]] || continue
    [ "$k" = etcd.storage ] && continue
    printf -- '--%s=%s\n' "${k#"$comp".}" "${LK_CONF[$k]}"
  done
}

lk_conf_show() {
  local k src
  printf '# effective localkube configuration (defaults: %s, overrides: %s)\n' "$LK_DEFAULTS" "$LK_USER_CONF"
  declare -A user=()
  if [ -f "$LK_USER_CONF" ]; then
    while IFS=$'\t' read -r k _; do [ -n "$k" ] && user[$k]=1; done <<< "$(lk_conf_parse "$LK_USER_CONF")"
  fi
  for k in "${LK_CONF_KEYS[@]}"; do
    src=""; [ -n "${user[$k]+x}" ] && src="   # set in localkube.conf"
    printf '%s = %s%s\n' "$k" "${LK_CONF[$k]}" "$src"
  done
}

# The user's file without any line setting KEY.
lk_conf_without() {
  awk -v k="$1" '{ line=$0; sub(/[[:space:]]*=.*/, "", line); gsub(/^[[:space:]]+/, "", line); if (line != k) print }' "$LK_USER_CONF"
}

lk_conf_set() {
  local k=$1 v=$2
  lk_conf_known "$k" || lk_die "unknown config key '$k'; 'localkube config' lists the known keys"
  lk_conf_check "$k" "$v" || exit 1
  mkdir -p "$LK_HOME"
  touch "$LK_USER_CONF"
  local tmp; tmp=$(mktemp "$LK_HOME/.conf.XXXXXX")
  lk_conf_without "$k" > "$tmp"
  printf '%s = %s\n' "$k" "$v" >> "$tmp"
  mv "$tmp" "$LK_USER_CONF"
  echo "[localkube] $k = $v (run 'localkube up' to apply; only affected components restart)"
}

lk_conf_unset() {
  local k=$1
  lk_conf_known "$k" || lk_die "unknown config key '$k'; 'localkube config' lists the known keys"
  [ -f "$LK_USER_CONF" ] || return 0
  local tmp; tmp=$(mktemp "$LK_HOME/.conf.XXXXXX")
  lk_conf_without "$k" > "$tmp"
  mv "$tmp" "$LK_USER_CONF"
  echo "[localkube] $k reset to its default ${LK_CONF_DEFAULT[$k]}"
}
