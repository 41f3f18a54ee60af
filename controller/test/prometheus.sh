# Sourced by controller/test/e2e.sh: localkube's Prometheus (localkube/lib/prometheus.sh) finds
# the pool pods through the API server, scrapes them, and records Isolato's rules over them.
# shellcheck shell=bash
PROM_URL=http://127.0.0.1:$("$LOCALKUBE" config | awk '$1 == "prometheus.port" { print $3 }')

# Whether QUERY (PromQL) has at least one series now.
prom_has() {
  curl -sfG --max-time 5 --data-urlencode "query=$1" "$PROM_URL/api/v1/query" \
    | jq -e '.status == "success" and (.data.result | length > 0)' >/dev/null
}

# CLASS TENANT: its pods are scraped (up == 1 with the class label), and while the tenant sends
# requests its rate and p95 are recorded. One request per second until then (a rate needs two
# scrapes that saw the counter grow), at most 90 s.
assert_prometheus_records() {
  local cls=$1 tenant=$2 ip deadline=$((SECONDS + 90)) n=0
  ip=$(service_ip "$cls")
  until prom_has "up{job=\"isolato-pools\",class=\"$cls\",namespace=\"isolato-c-$cls\"} == 1" \
      && prom_has "isolato:tenant_requests:rate1m{class=\"$cls\",tenant=\"$tenant\"} > 0" \
      && prom_has "isolato:tenant_latency_seconds:p95_1m{class=\"$cls\",tenant=\"$tenant\"}"; do
    [ $SECONDS -lt $deadline ] || {
      curl -s "$PROM_URL/api/v1/targets?state=active" | jq -c '.data.activeTargets[] | {scrapePool, health, lastError, labels}' >&2 || true
      die "Prometheus ($PROM_URL) did not record $tenant of $cls within 90 s ($n requests sent); targets above"
    }
    curl -s -o /dev/null --max-time 5 -X POST "http://$ip:8080/v1/tenants/$tenant/requests" && n=$((n + 1))
    sleep 1
  done
  log "Prometheus scrapes the $cls pods and records $tenant's rate and p95 ($n requests)"
}
