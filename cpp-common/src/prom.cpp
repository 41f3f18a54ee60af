#include "prom.hpp"

#include <algorithm>

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

void prom_header(std::ostream& o, std::string_view name, std::string_view type, std::string_view help) {
  o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n';
}

void expose_status_counts(std::ostream& o, std::string_view name, const std::vector<TenantSeries>& series) {
  for (const auto& [id, m] : series)
    for (unsigned s = TenantMetrics::kMinStatus; s <= TenantMetrics::kMaxStatus; ++s)
      if (auto n = m->by_status[s - TenantMetrics::kMinStatus].load(std::memory_order_relaxed))
        o << name << "{tenant=\"" << escape_label(id) << "\",code=\"" << s << "\"} " << n << '\n';
}

void expose_tenant_histogram(std::ostream& o, std::string_view name, std::string_view tenant, const Histogram& h) {
  const std::string t = escape_label(tenant);
  for (std::size_t i = 0; i < Histogram::kBoundsSeconds.size(); ++i)
    o << name << "_bucket{tenant=\"" << t << "\",le=\"" << Histogram::kBoundsSeconds[i] << "\"} " << h.cumulative(i)
      << '\n';
  o << name << "_bucket{tenant=\"" << t << R"(",le="+Inf"} )" << h.count() << '\n'
    << name << "_sum{tenant=\"" << t << "\"} " << h.sum_seconds() << '\n'
    << name << "_count{tenant=\"" << t << "\"} " << h.count() << '\n';
}

void expose_process_metrics(std::ostream& o) {
  const ProcessStats p = read_process_stats();
  prom_header(o, "process_cpu_seconds_total", "counter", "User and system CPU time of the process.");
  o << "process_cpu_seconds_total " << p.cpu_seconds << '\n';
  prom_header(o, "process_resident_memory_bytes", "gauge", "Resident set size of the process.");
  o << "process_resident_memory_bytes " << p.resident_bytes << '\n';
}

}  // namespace saasbench
