#include "gate_metrics.hpp"

#include <sstream>

namespace isolato::gate {
using saasbench::escape_label;
using saasbench::prom_header;

std::string GateMetrics::expose(const std::string& table_version, std::vector<saasbench::TenantSeries> tenants) const {
  std::ostringstream o;
  o.precision(10);
  tenants.push_back({kUnknownTenant, &unknown_});

  prom_header(o, "isolato_gate_requests_total", "counter", "Tenant requests answered by the gate, by status.");
  saasbench::expose_status_counts(o, "isolato_gate_requests_total", tenants);

  prom_header(o, "isolato_gate_request_duration_seconds", "histogram",
              "Tenant request latency at the gate, request in to response out.");
  for (const auto& [id, m] : tenants)
    saasbench::expose_tenant_histogram(o, "isolato_gate_request_duration_seconds", id, m->latency);

  // Every tenant and reason/kind, zeros included: a rate() over a series that appears late
  // misses its first increase.
  prom_header(o, "isolato_gate_rejected_total", "counter", "Tenant requests the gate answered itself, by reason.");
  static constexpr const char* kReasons[] = {"rate", "unknown_tenant", "overload", "draining"};
  for (const auto& [id, m] : tenants)
    for (std::size_t r = 0; r < static_cast<std::size_t>(Reject::count_); ++r)
      o << "isolato_gate_rejected_total{tenant=\"" << escape_label(id) << "\",reason=\"" << kReasons[r] << "\"} "
        << m->events[r].load(std::memory_order_relaxed) << '\n';

  prom_header(o, "isolato_gate_upstream_errors_total", "counter", "Upstream failures by kind (502/504 answers).");
  static constexpr const char* kKinds[] = {"connect", "reset", "timeout"};
  constexpr auto kFirst = static_cast<std::size_t>(UpstreamError::connect);
  constexpr auto kEnd = static_cast<std::size_t>(UpstreamError::end_);
  for (const auto& [id, m] : tenants)
    for (std::size_t k = kFirst; k < kEnd; ++k)
      o << "isolato_gate_upstream_errors_total{tenant=\"" << escape_label(id) << "\",kind=\"" << kKinds[k - kFirst]
        << "\"} " << m->events[k].load(std::memory_order_relaxed) << '\n';

  prom_header(o, "isolato_gate_connections", "gauge", "Client connections open.");
  o << "isolato_gate_connections " << connections_.load(std::memory_order_relaxed) << '\n';
  prom_header(o, "isolato_gate_upstream_requests", "gauge",
              "Requests relayed to the app now (--max-upstream-requests).");
  o << "isolato_gate_upstream_requests " << upstream_requests_.load(std::memory_order_relaxed) << '\n';
  prom_header(o, "isolato_gate_queued_requests", "gauge", "Requests waiting for one of those.");
  o << "isolato_gate_queued_requests " << queued_requests_.load(std::memory_order_relaxed) << '\n';
  prom_header(o, "isolato_gate_tenant_table_info", "gauge", "Active tenant table version (value always 1).");
  o << "isolato_gate_tenant_table_info{version=\"" << escape_label(table_version) << "\"} 1\n";
  prom_header(o, "isolato_gate_tenant_table_updates_total", "counter", "Tenant table updates by source and result.");
  for (std::size_t s = 0; s < 2; ++s)
    for (std::size_t ok = 0; ok < 2; ++ok)
      o << "isolato_gate_tenant_table_updates_total{source=\"" << (s ? "admin" : "file") << "\",result=\""
        << (ok ? "applied" : "rejected") << "\"} " << table_updates_[s * 2 + ok].load(std::memory_order_relaxed)
        << '\n';
  prom_header(o, "isolato_gate_admin_token_reloads_total", "counter", "Reloads of the admin token file by result.");
  for (std::size_t ok = 0; ok < 2; ++ok)
    o << "isolato_gate_admin_token_reloads_total{result=\"" << (ok ? "applied" : "rejected") << "\"} "
      << token_reloads_[ok].load(std::memory_order_relaxed) << '\n';
  saasbench::expose_process_metrics(o);
  return o.str();
}

}  // namespace isolato::gate
