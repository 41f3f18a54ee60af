// Metrics registry and its Prometheus text exposition (prefix saasbench_). Counters are
// relaxed atomics: exact totals, no ordering needed between them.
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "prom.hpp"

namespace saasbench {

enum class Rejection { rate_limited, overloaded, unknown_tenant, bad_request, count_ };
enum class TableSource { file, admin };

class Metrics {
 public:
  // Label used for requests naming no known tenant (ids cannot start with '_').
  static constexpr std::string_view kUnknownTenant = "_unknown";

  TenantMetrics& unknown_tenant() { return unknown_tenant_; }
  void rejected(Rejection r) { rejected_[static_cast<std::size_t>(r)].fetch_add(1, std::memory_order_relaxed); }
  void table_update(TableSource s, bool ok);
  void admin_token_reload(bool ok) { token_reloads_[ok ? 1 : 0].fetch_add(1, std::memory_order_relaxed); }
  // The counters as FileHandler::counted feeds (tenant table file, admin token file).
  std::function<void(bool)> table_file_counter() {
    return [this](bool ok) { table_update(TableSource::file, ok); };
  }
  std::function<void(bool)> token_reload_counter() {
    return [this](bool ok) { admin_token_reload(ok); };
  }
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

}  // namespace saasbench
