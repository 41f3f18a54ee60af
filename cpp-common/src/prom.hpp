// Prometheus building blocks shared by saas-bench and isolato-gate: the per-tenant latency
// histogram and status counters, label escaping, and the text-format pieces (HELP/TYPE header,
// the process_* series). Counters are relaxed atomics: exact totals, no ordering needed.
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace saasbench {

// Latency histogram with buckets fine enough (1 ms steps up to 10 ms, 5 ms to 50 ms,
// 10 ms to 100 ms, 25 ms to 200 ms) to read a p95 between 1 and 200 ms.
class Histogram {
 public:
  static constexpr std::array<double, 38> kBoundsSeconds{
      0.0005, 0.001,  0.0015, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007, 0.008, 0.009, 0.010, 0.0125,
      0.015,  0.0175, 0.020,  0.025, 0.030, 0.035, 0.040, 0.045, 0.050, 0.060, 0.070, 0.080, 0.090,
      0.100,  0.125,  0.150,  0.175, 0.200, 0.250, 0.300, 0.400, 0.500, 1.0,   2.5,   5.0};
  void observe(std::chrono::nanoseconds d);
  std::uint64_t count() const;
  // Cumulative count of observations <= kBoundsSeconds[i] (i == size: all).
  std::uint64_t cumulative(std::size_t i) const;
  double sum_seconds() const;

 private:
  std::array<std::atomic<std::uint64_t>, kBoundsSeconds.size() + 1> buckets_{};
  std::atomic<std::uint64_t> sum_ns_{0};
};

struct TenantMetrics {
  static constexpr unsigned kMinStatus = 100, kMaxStatus = 599;
  std::array<std::atomic<std::uint64_t>, kMaxStatus - kMinStatus + 1> by_status{};
  Histogram latency;
  // Counters whose meaning the owner defines (isolato-gate: rejections and upstream errors by
  // kind), kept here so that they live and die with the tenant's other series.
  std::array<std::atomic<std::uint64_t>, 8> events{};
  void record(unsigned status, std::chrono::nanoseconds d);
  void count(std::size_t event) { events.at(event).fetch_add(1, std::memory_order_relaxed); }
};

// One tenant's series as exposed: the TenantMetrics belong to the tenant's entry in the active
// table (see TenantState), so a tenant's series go when it leaves the table.
struct TenantSeries {
  std::string_view id;
  const TenantMetrics* metrics;
};

// Escapes a Prometheus label value (backslash, double quote, newline).
std::string escape_label(std::string_view v);

// "# HELP <name> <help>\n# TYPE <name> <type>\n"
void prom_header(std::ostream& o, std::string_view name, std::string_view type, std::string_view help);
// process_cpu_seconds_total and process_resident_memory_bytes of this process.
void expose_process_metrics(std::ostream& o);
// `<name>{tenant="<id>",code="<status>"} <n>` for every status seen, of every series.
void expose_status_counts(std::ostream& o, std::string_view name, const std::vector<TenantSeries>& series);
// `<prefix>_bucket/_sum/_count` lines of one histogram labelled tenant="<id>".
void expose_tenant_histogram(std::ostream& o, std::string_view name, std::string_view tenant, const Histogram& h);

}  // namespace saasbench
