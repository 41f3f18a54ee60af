#include "metrics.hpp"

#include <algorithm>
#include <sstream>

namespace saasbench {

void Metrics::table_update(TableSource s, bool ok) {
  table_updates_[static_cast<std::size_t>(s) * 2 + (ok ? 1 : 0)].fetch_add(1, std::memory_order_relaxed);
}

std::string Metrics::expose(const Gauges& g) const {
  std::ostringstream o;
  o.precision(10);
  std::vector<TenantSeries> series = g.tenants_series;
  series.push_back({kUnknownTenant, &unknown_tenant_});

  prom_header(o, "saasbench_requests_total", "counter", "Tenant requests by response status.");
  expose_status_counts(o, "saasbench_requests_total", series);

  prom_header(o, "saasbench_request_duration_seconds", "histogram",
              "Tenant request latency from request parsed to response ready.");
  for (const auto& [id, m] : series) expose_tenant_histogram(o, "saasbench_request_duration_seconds", id, m->latency);

  prom_header(o, "saasbench_rejected_total", "counter", "Requests rejected before any work, by reason.");
  static constexpr const char* kReasons[] = {"rate_limited", "overloaded", "unknown_tenant", "bad_request"};
  for (std::size_t i = 0; i < rejected_.size(); ++i)
    o << "saasbench_rejected_total{reason=\"" << kReasons[i] << "\"} " << rejected_[i].load(std::memory_order_relaxed)
      << '\n';

  prom_header(o, "saasbench_in_flight_requests", "gauge", "Tenant requests admitted and not yet answered.");
  o << "saasbench_in_flight_requests " << in_flight_.load(std::memory_order_relaxed) << '\n';

  prom_header(o, "saasbench_tenant_table_info", "gauge", "Active tenant table version (value always 1).");
  o << "saasbench_tenant_table_info{version=\"" << escape_label(g.table_version) << "\"} 1\n";
  prom_header(o, "saasbench_tenant_table_tenants", "gauge", "Tenants in the active table.");
  o << "saasbench_tenant_table_tenants " << g.tenants << '\n';
  prom_header(o, "saasbench_tenant_table_updates_total", "counter", "Tenant table updates by source and result.");
  static constexpr const char* kSources[] = {"file", "admin"};
  for (std::size_t s = 0; s < 2; ++s)
    for (std::size_t ok = 0; ok < 2; ++ok)
      o << "saasbench_tenant_table_updates_total{source=\"" << kSources[s] << "\",result=\""
        << (ok ? "applied" : "rejected") << "\"} " << table_updates_[s * 2 + ok].load(std::memory_order_relaxed)
        << '\n';

  prom_header(o, "saasbench_admin_token_reloads_total", "counter",
              "Reloads of the admin token file by result (rejected: empty, unreadable or missing; old tokens stay).");
  for (std::size_t ok = 0; ok < 2; ++ok)
    o << "saasbench_admin_token_reloads_total{result=\"" << (ok ? "applied" : "rejected") << "\"} "
      << token_reloads_[ok].load(std::memory_order_relaxed) << '\n';

  prom_header(o, "saasbench_worker_threads", "gauge", "Threads running stress work.");
  o << "saasbench_worker_threads " << g.worker_threads << '\n';
  prom_header(o, "saasbench_io_threads", "gauge", "Threads serving HTTP.");
  o << "saasbench_io_threads " << g.io_threads << '\n';

  expose_process_metrics(o);
  return o.str();
}

}  // namespace saasbench
