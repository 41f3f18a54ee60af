// Metrics registry and its Prometheus text exposition (prefix saasbench_). Counters are
// relaxed atomics: exact totals, no ordering needed between them.
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
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
  void record(unsigned status, std::chrono::nanoseconds d);
};

enum class Rejection { rate_limited, overloaded, unknown_tenant, bad_request, count_ };
enum class TableSource { file, admin };

// One tenant's series as exposed: the TenantMetrics belong to the tenant's entry in the active
// table (see TenantState), so a tenant's series go when it leaves the table.
struct TenantSeries {
  std::string_view id;
  const TenantMetrics* metrics;
};

class Metrics {
 public:
  // Label used for requests naming no known tenant (ids cannot start with '_').
  static constexpr std::string_view kUnknownTenant = "_unknown";

  TenantMetrics& unknown_tenant() { return unknown_tenant_; }
  void rejected(Rejection r) { rejected_[static_cast<std::size_t>(r)].fetch_add(1, std::memory_order_relaxed); }
  void table_update(TableSource s, bool ok);
  void admin_token_reload(bool ok) { token_reloads_[ok ? 1 : 0].fetch_add(1, std::memory_order_relaxed); }
  std::atomic<std::int64_t>& in_flight() { return in_flight_; }

  struct Gauges {  // state read when scraping, owned elsewhere
    std::string table_version;
    std::size_t tenants = 0;
    std::size_t worker_threads = 0;
    std::size_t io_threads = 0;
    std::vector<TenantSeries> tenants_series;  // the active table's tenants
  };
  std::string expose(const Gauges& g) const;

 private:
  TenantMetrics unknown_tenant_;
  std::array<std::atomic<std::uint64_t>, static_cast<std::size_t>(Rejection::count_)> rejected_{};
  std::array<std::atomic<std::uint64_t>, 4> table_updates_{};  // [source][ok]
  std::array<std::atomic<std::uint64_t>, 2> token_reloads_{};  // [ok]
  std::atomic<std::int64_t> in_flight_{0};
};

// Escapes a Prometheus label value (backslash, double quote, newline).
std::string escape_label(std::string_view v);

}  // namespace saasbench
