#!/usr/bin/env bash
# The chart ships files/isolato-rules.yaml unchanged: as a ConfigMap's rule file by default, as a
# PrometheusRule's spec where monitoring.coreos.com/v1 is served. Usage: check-rules-render.sh HELM
set -euo pipefail
HELM=$1
CHART=$(cd "$(dirname "$0")" && pwd)/isolato
RULES=$CHART/files/isolato-rules.yaml
render() { "$HELM" template isolato "$CHART" --namespace isolato-system --kube-version v1.34.4 \
  --show-only templates/prometheus-rules.yaml "$@"; }
# The block under KEY (a line ending in KEY), de-indented by INDENT spaces.
block() { awk -v key="$1" -v n="$2" 'found { print substr($0, n + 1); next } $0 ~ key "$" { found = 1 }'; }
fail() { echo "[helm] $*" >&2; exit 1; }

cm=$(render)
grep -qx 'kind: ConfigMap' <<< "$cm" || fail "without the PrometheusRule CRD the chart must render a ConfigMap"
cmp -s <(block 'isolato-rules.yaml: [|]' 4 <<< "$cm") "$RULES" || fail "the ConfigMap's rule file differs from $RULES"
pr=$(render --api-versions monitoring.coreos.com/v1/PrometheusRule)
grep -qx 'kind: PrometheusRule' <<< "$pr" || fail "with monitoring.coreos.com/v1 the chart must render a PrometheusRule"
cmp -s <(block '^spec:' 2 <<< "$pr") "$RULES" || fail "the PrometheusRule's spec differs from $RULES"
"$HELM" template isolato "$CHART" --namespace isolato-system --kube-version v1.34.4 --set monitoring.rules.enabled=false \
  | grep -q 'isolato-rules\|PrometheusRule' && fail "monitoring.rules.enabled=false must render no rules"
exit 0
