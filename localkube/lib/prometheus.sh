# Prometheus (Debian package), an optional component (prometheus.enabled): scrapes Isolato's
# controller and every pool pod, and evaluates Isolato's rules — the chart's file, the one copy
# (helm/isolato/files/). Debian builds Prometheus without Kubernetes discovery, so a second
# process, prometheus-discovery, finds the pods through the API server (with an identity that may
# only read pods) and keeps a file_sd target file current.
# shellcheck shell=bash

LK_OPTIONAL_COMPONENTS=(prometheus-discovery prometheus)
LK_PROMETHEUS_DIR=$LK_HOME/prometheus
LK_PROMETHEUS_RULES=$LK_SRC/../helm/isolato/files/isolato-rules.yaml

lk_optional_enabled() { # component; prometheus-discovery goes with prometheus
  local key=${1%-discovery}.enabled
  case "$(lk_conf "$key")" in
    true) return 0 ;; false) return 1 ;;
    *) lk_die "config key '$key' must be true or false, not '$(lk_conf "$key")'" ;;
  esac
}

lk_prometheus_url() { echo "http://127.0.0.1:$(lk_conf prometheus.port)"; }

lk_prometheus_args() {
  printf '%s\n' /usr/bin/prometheus "--config.file=$LK_PROMETHEUS_DIR/prometheus.yml" \
    "--storage.tsdb.path=$LK_PROMETHEUS_DIR/data" "--storage.tsdb.retention.time=$(lk_conf prometheus.retention)" \
    "--web.listen-address=127.0.0.1:$(lk_conf prometheus.port)" "--web.external-url=$(lk_prometheus_url)/"
}

lk_prometheus_config() {
  local every; every=$(lk_conf prometheus.scrape-interval)
  cat <<EOF
# Written by localkube (lib/prometheus.sh) on every 'up'; change it with 'localkube config'.
global: {scrape_interval: $every, evaluation_interval: $every}
rule_files: [$LK_PROMETHEUS_DIR/isolato-rules.yaml]
scrape_configs:
- job_name: isolato-controller
  metrics_path: /actuator/prometheus
  static_configs: [{targets: ["$(lk_conf prometheus.controller-target)"]}]
# Running pool pods' port named http (saas-bench's /metrics; pod IPs are reachable from the
# host) with labels class, pool, namespace, pod, written by prometheus-discovery.
- job_name: isolato-pools
  file_sd_configs: [{files: [$LK_PROMETHEUS_DIR/pool-targets.json]}]
EOF
}

lk_prometheus_discovery_args() {
  printf '%s\n' "$LK_SRC/lib/prometheus-discovery" "$LK_BIN_DIR/kubectl" \
    "$LK_KUBECONFIGS/prometheus.kubeconfig" "$LK_PROMETHEUS_DIR/pool-targets.json"
}

# Its identity and RBAC; the API server runs by the time optional components start.
lk_prometheus_discovery_prepare() {
  lk_pki_cert prometheus "/CN=localkube-prometheus" client ""
  chmod 600 "$LK_PKI/prometheus.key"
  lk_pki_kubeconfig prometheus prometheus
  lk_kubectl_super apply --server-side --force-conflicts --field-manager=localkube \
    -f "$LK_SRC/manifests/prometheus-rbac.yaml" >/dev/null || lk_die "Prometheus' RBAC was rejected; see the error above"
  mkdir -p "$LK_PROMETHEUS_DIR"
  rm -f "$LK_PROMETHEUS_DIR/pool-targets.json"
}

# Healthy once it has listed the pods (an empty list is a list); prepare removes the old file.
lk_prometheus_discovery_health() { [ -s "$LK_PROMETHEUS_DIR/pool-targets.json" ]; }

lk_prometheus_prepare() {
  [ -f "$LK_PROMETHEUS_RULES" ] || lk_die "the rules file $LK_PROMETHEUS_RULES is missing"
  mkdir -p "$LK_PROMETHEUS_DIR/data"
  cp "$LK_PROMETHEUS_RULES" "$LK_PROMETHEUS_DIR/isolato-rules.yaml"
  lk_prometheus_config > "$LK_PROMETHEUS_DIR/prometheus.yml"
  promtool check config "$LK_PROMETHEUS_DIR/prometheus.yml" >/dev/null \
    || lk_die "the Prometheus configuration $LK_PROMETHEUS_DIR/prometheus.yml is invalid (promtool check config says why)"
}

# Enabled optional components run with their current configuration; disabled ones are stopped.
lk_apply_optional() {
  local c
  for c in "${LK_OPTIONAL_COMPONENTS[@]}"; do
    if lk_optional_enabled "$c"; then
      lk_is_running "$c" && ! lk_changed "$c" && continue
      lk_step "starting $c"
      lk_stop_process "$c"
      lk_start_component "$c"
      [ "$c" = prometheus ] && lk_step "prometheus: $(lk_prometheus_url)"
    elif lk_is_running "$c"; then
      lk_step "$c is disabled: stopping it"
      lk_stop_process "$c"
    fi
  done
  return 0
}
