#include "metrics.hpp"

#include <algorithm>
#include <sstream>

#include "process_stats.hpp"

namespace saasbench {

void Histogram::observe(std::chrono::nanoseconds d) {
  const double s = std::chrono::duration<double>(d).count();
  const auto* const it = std::lower_bound(kBoundsSeconds.begin(), kBoundsSeconds.end(), s);
  buckets_[static_cast<std::size_t>(it - kBoundsSeconds.begin())].fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(static_cast<std::uint64_t>(std::max<std::int64_t>(0, d.count())), std::memory_order_relaxed);
}

std::uint64_t Histogram::cumulative(std::size_t i) const {
  std::uint64_t n = 0;
  for (std::size_t b = 0; b <= i && b < buckets_.size(); ++b) n += buckets_[b].load(std::memory_order_relaxed);
  return n;
}

std::uint64_t Histogram::count() const { return cumulative(kBoundsSeconds.size()); }

double Histogram::sum_seconds() const { return static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9; }

void TenantMetrics::record(unsigned status, std::chrono::nanoseconds d) {
  const unsigned s = std::clamp(status, kMinStatus, kMaxStatus);
  by_status[s - kMinStatus].fetch_add(1, std::memory_order_relaxed);
  latency.observe(d);
}

void Metrics::table_update(TableSource s, bool ok) {
  table_updates_[static_cast<std::size_t>(s) * 2 + (ok ? 1 : 0)].fetch_add(1, std::memory_order_relaxed);
}

std::string escape_label(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

namespace {
void header(std::ostringstream& o, const char* name, const char* type, const char* help) {
  o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}
}  // namespace

std::string Metrics::expose(const Gauges& g) const {
  std::ostringstream o;
  o.precision(10);
  std::vector<TenantSeries> series = g.tenants_series;
  series.push_back({kUnknownTenant, &unknown_tenant_});

  header(o, "saasbench_requests_total", "counter", "Tenant requests by response status.");
  for (const auto& [id, m] : series)
    for (unsigned s = TenantMetrics::kMinStatus; s <= TenantMetrics::kMaxStatus; ++s)
      if (auto n = m->by_status[s - TenantMetrics::kMinStatus].load(std::memory_order_relaxed))
        o << "saasbench_requests_total{tenant=\"" << escape_label(id) << "\",code=\"" << s << "\"} " << n << '\n';

  header(o, "saasbench_request_duration_seconds", "histogram",
         "Tenant request latency from request parsed to response ready.");
  for (const auto& [id, m] : series) {
    const std::string t = escape_label(id);
    for (std::size_t i = 0; i < Histogram::kBoundsSeconds.size(); ++i)
      o << "saasbench_request_duration_seconds_bucket{tenant=\"" << t << "\",le=\"" << Histogram::kBoundsSeconds[i]
        << "\"} " << m->latency.cumulative(i) << '\n';
    o << "saasbench_request_duration_seconds_bucket{tenant=\"" << t << R"(",le="+Inf"} )" << m->latency.count() << '\n'
      << "saasbench_request_duration_seconds_sum{tenant=\"" << t << "\"} " << m->latency.sum_seconds() << '\n'
      << "saasbench_request_duration_seconds_count{tenant=\"" << t << "\"} " << m->latency.count() << '\n';
  }

  header(o, "saasbench_rejected_total", "counter", "Requests rejected before any work, by reason.");
  static constexpr const char* kReasons[] = {"rate_limited", "overloaded", "unknown_tenant", "bad_request"};
  for (std::size_t i = 0; i < rejected_.size(); ++i)
    o << "saasbench_rejected_total{reason=\"" << kReasons[i] << "\"} " << rejected_[i].load(std::memory_order_relaxed)
      << '\n';

  header(o, "saasbench_in_flight_requests", "gauge", "Tenant requests admitted and not yet answered.");
  o << "saasbench_in_flight_requests " << in_flight_.load(std::memory_order_relaxed) << '\n';

  header(o, "saasbench_tenant_table_info", "gauge", "Active tenant table version (value always 1).");
  o << "saasbench_tenant_table_info{version=\"" << escape_label(g.table_version) << "\"} 1\n";
  header(o, "saasbench_tenant_table_tenants", "gauge", "Tenants in the active table.");
  o << "saasbench_tenant_table_tenants " << g.tenants << '\n';
  header(o, "saasbench_tenant_table_updates_total", "counter", "Tenant table updates by source and result.");
  static constexpr const char* kSources[] = {"file", "admin"};
  for (std::size_t s = 0; s < 2; ++s)
    for (std::size_t ok = 0; ok < 2; ++ok)
      o << "saasbench_tenant_table_updates_total{source=\"" << kSources[s] << "\",result=\""
        << (ok ? "applied" : "rejected") << "\"} " << table_updates_[s * 2 + ok].load(std::memory_order_relaxed)
        << '\n';

  header(o, "saasbench_admin_token_reloads_total", "counter",
         "Reloads of the admin token file by result (rejected: empty, unreadable or missing; old tokens stay).");
  for (std::size_t ok = 0; ok < 2; ++ok)
    o << "saasbench_admin_token_reloads_total{result=\"" << (ok ? "applied" : "rejected") << "\"} "
      << token_reloads_[ok].load(std::memory_order_relaxed) << '\n';

  header(o, "saasbench_worker_threads", "gauge", "Threads running stress work.");
  o << "saasbench_worker_threads " << g.worker_threads << '\n';
  header(o, "saasbench_io_threads", "gauge", "Threads serving HTTP.");
  o << "saasbench_io_threads " << g.io_threads << '\n';

  const ProcessStats p = read_process_stats();
  header(o, "process_cpu_seconds_total", "counter", "User and system CPU time of the process.");
  o << "process_cpu_seconds_total " << p.cpu_seconds << '\n';
  header(o, "process_resident_memory_bytes", "gauge", "Resident set size of the process.");
  o << "process_resident_memory_bytes " << p.resident_bytes << '\n';
  return o.str();
}

}  // namespace saasbench
